// The lab's resource names under the prefix the user chose (LAB_PREFIX), checked first.
import { DEFAULT_PREFIX, type LabNames, namesFor, PREFIX_PATTERN } from "../../contract/names.js";
import { UsageError } from "../common/errors.js";

export { DEFAULT_PREFIX, type LabNames };

export function labNames(prefix: string = process.env.LAB_PREFIX || DEFAULT_PREFIX): LabNames {
  if (!PREFIX_PATTERN.test(prefix)) {
    throw new UsageError(`LAB_PREFIX "${prefix}" must be 1 to 40 letters, digits, "-" or "_"`);
  }
  return namesFor(prefix);
}
