// How to point the AWS CLI at the lab, in the shells a workshop room has: the article itself
// was written in PowerShell, where `VAR=value command` is not a thing.

/** The credentials are dummies: emulators accept any; the lab never reads a real profile. */
export function awsCliLines(endpoint: string, region: string): string {
  const vars = {
    AWS_ACCESS_KEY_ID: "test",
    AWS_SECRET_ACCESS_KEY: "test",
    AWS_DEFAULT_REGION: region,
  };
  const entries = Object.entries(vars);
  const command = `aws --endpoint-url ${endpoint} sqs list-queues`;
  return [
    "  with the AWS CLI, in bash or zsh:",
    `    export ${entries.map(([k, v]) => `${k}=${v}`).join(" ")}`,
    `    ${command}`,
    "  in PowerShell:",
    `    ${entries.map(([k, v]) => `$env:${k} = "${v}"`).join("; ")}`,
    `    ${command}`,
  ].join("\n");
}
