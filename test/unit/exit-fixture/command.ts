// A command as lab-cli runs one, for test/unit/exit.test.ts: argv[2] says how
// it ends.

import { runCommand } from "../../../harness/cli/exit.js";
import { LabError } from "../../../harness/common/errors.js";

const how = process.argv[2];
const work = async (): Promise<number> => {
  switch (how) {
    case "prints":
      console.log("the table");
      return 0;
    case "check-failed":
      return 1;
    case "lab-error":
      throw new LabError("no backend can run on this machine");
    case "never-settles":
      // What doctor once did under load: awaiting something nothing will ever answer, with
      // nothing left in the event loop. Node's own ending for that is exit 0, nothing printed.
      console.error("probing…");
      return new Promise<number>(() => {});
    default:
      throw new Error(`unknown fixture ${how}`);
  }
};
runCommand("fixture", work, () => (how === "never-settles" ? ["the Docker engine"] : []));
