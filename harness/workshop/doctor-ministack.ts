// doctor's judgement of MiniStack, from the facts alone. ✓ only for what will work now: it is
// installed in .lab/venv, or pip resolves it from .lab/wheels offline, or the package index
// answers. A Python alone is not enough: with no venv, no wheels and no network, nothing installs.
import { MINISTACK_VERSION, WHEELS_FIX } from "../backends/ministack-install.js";
import { supportedPythonText } from "../common/supported.js";
import type { Facts } from "./doctor-facts.js";
import type { Choice, DoctorRow } from "./doctor-row.js";

export interface MiniStackVerdict {
  ok: boolean;
  /** Its two table rows: MiniStack itself, and the wheels for offline use. */
  rows: DoctorRow[];
  /** The backend line: what it will run from, or what is missing. */
  line: string;
  /** auto's and lab up's choice when it comes to MiniStack; when "none", `why` is what to do. */
  choice: Choice;
}

const check = `MiniStack ${MINISTACK_VERSION}`;
const wheelsCheck = "MiniStack wheels for offline use";

export function judgeMiniStack({
  python,
  ministack,
}: Pick<Facts, "python" | "ministack">): MiniStackVerdict {
  if (!("command" in python)) {
    return {
      ok: false,
      rows: [
        { check, ok: null, found: `needs Python ${supportedPythonText()} first`, next: "" },
        { check: wheelsCheck, ok: null, found: "cannot tell without Python", next: "" },
      ],
      line: `needs Python ${supportedPythonText()}`,
      choice: {
        backend: "none",
        why: `install Python ${supportedPythonText()} (MiniStack) or start an emulator`,
      },
    };
  }
  if (ministack.installed) {
    return runs(
      { check, ok: true, found: "installed in .lab/venv", next: "" },
      { check: wheelsCheck, ok: null, found: "not needed: installed", next: "" },
      "installed in .lab/venv; no Docker needed",
      "MiniStack is installed in .lab/venv",
    );
  }
  const wheels = ministack.wheels ?? { state: "none" };
  if (wheels.state === "resolve") {
    return runs(
      { check, ok: true, found: "not installed yet; the first run installs it offline", next: "" },
      {
        check: wheelsCheck,
        ok: true,
        found: `in .lab/wheels, for this platform and Python ${python.version}`,
        next: "",
      },
      "installs from .lab/wheels on first use, no network needed",
      "MiniStack installs from .lab/wheels",
    );
  }
  const wheelsRow: DoctorRow =
    wheels.state === "none"
      ? {
          check: wheelsCheck,
          ok: false,
          found: "none in .lab/wheels",
          next: "npx lab offline-prepare (while online), or copy the workshop kit's wheels into .lab/wheels",
        }
      : {
          check: wheelsCheck,
          ok: false,
          found: `in .lab/wheels, but not for this platform and Python ${python.version}: ${wheels.why}`,
          next: "copy the workshop kit's wheels into .lab/wheels (every platform and Python)",
        };
  const index = ministack.index;
  if (index?.answers) {
    return runs(
      {
        check,
        ok: true,
        found: `not installed yet; the first run installs it from ${index.url}`,
        next: "",
      },
      wheelsRow,
      `installs from ${index.url} on first use`,
      `MiniStack installs from ${index.url}`,
    );
  }
  const nowhere = `no usable wheels in .lab/wheels and ${index?.url ?? "the package index"} does not answer`;
  return {
    ok: false,
    rows: [
      { check, ok: false, found: `not installed, and cannot be: ${nowhere}`, next: WHEELS_FIX },
      wheelsRow,
    ],
    line: `cannot install: ${nowhere}`,
    choice: {
      backend: "none",
      why: `MiniStack cannot install here: ${WHEELS_FIX}, or start an emulator`,
    },
  };
}

function runs(row: DoctorRow, wheelsRow: DoctorRow, line: string, why: string): MiniStackVerdict {
  return {
    ok: true,
    rows: [row, wheelsRow],
    line,
    choice: { backend: "ministack", why },
  };
}
