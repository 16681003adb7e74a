// A body file's bytes as text. Windows PowerShell 5.1's `echo '{...}' > body.json` writes
// UTF-16 LE with a byte-order mark, so the article's fix (send the body from a file) must read
// that as well as UTF-8. Anything else is refused here: sent as it is, an encoding mistake would
// reach the worker as an "unparseable" order and look like the very bug the lesson is about.
import { UsageError } from "../common/errors.js";

const startsWith = (bytes: Uint8Array, ...prefix: number[]) =>
  prefix.every((b, i) => bytes[i] === b);

/** The text of a body file, without its byte-order mark; a UsageError for any other encoding. */
export function decodeBodyFile(bytes: Uint8Array, file: string): string {
  const refuse = (
    what: string,
    fix = `(Get-Content ${file}) | Set-Content -Encoding utf8 ${file}`,
  ) => new UsageError(`body file ${file} is ${what}; save it as UTF-8 (PowerShell: ${fix})`);
  // UTF-32 LE's mark begins with UTF-16 LE's, so it is told apart first.
  if (startsWith(bytes, 0xff, 0xfe, 0x00, 0x00) || startsWith(bytes, 0x00, 0x00, 0xfe, 0xff))
    throw refuse("UTF-32");
  if (startsWith(bytes, 0xef, 0xbb, 0xbf)) return utf8(bytes.subarray(3), refuse);
  if (startsWith(bytes, 0xff, 0xfe))
    return strict("utf-16le", "UTF-16 LE", bytes.subarray(2), refuse);
  if (startsWith(bytes, 0xfe, 0xff))
    return strict("utf-16be", "UTF-16 BE", bytes.subarray(2), refuse);
  // JSON never holds a raw NUL, and SQS would refuse one: it is UTF-16 that lost its mark.
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    // ASCII in UTF-16 LE puts the zero second ({ = 7B 00), in UTF-16 BE first (00 7B).
    const encoding = nul % 2 === 1 ? "Unicode" : "BigEndianUnicode";
    throw refuse(
      "UTF-16 without a byte-order mark",
      `(Get-Content -Encoding ${encoding} ${file}) | Set-Content -Encoding utf8 ${file}`,
    );
  }
  return utf8(bytes, refuse);
}

type Refuse = (what: string) => UsageError;

function utf8(bytes: Uint8Array, refuse: Refuse): string {
  return strict("utf-8", "UTF-8", bytes, () =>
    refuse("not UTF-8 (perhaps Windows-1252 or another legacy code page)"),
  );
}

function strict(encoding: string, name: string, bytes: Uint8Array, refuse: Refuse): string {
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw refuse(`not valid ${name}`);
  }
}

/** What Windows PowerShell 5.1's `echo '...' > body.json` writes: a BOM, UTF-16 LE, CRLF. */
export function writtenByPowerShell51(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${text}\r\n`, "utf16le")]);
}
