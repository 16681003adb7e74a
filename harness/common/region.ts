// The region every client signs for and every emulator runs in; emulators accept any, and the
// AWS CLI needs one. LAB_REGION overrides it.
export const labRegion = (env: NodeJS.ProcessEnv = process.env): string =>
  env.LAB_REGION || "us-east-1";
