// The Docker paths, checked as data: the compose file (parsed as YAML) and the options the
// testcontainers backend gives Docker. These run everywhere; the e2e run needs Docker.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { parse } from "yaml";
import {
  describeLocalstack,
  LOCALSTACK_DEFAULT_IMAGE,
  LOCALSTACK_SERVICES,
  localstackEnvironment,
  localstackImage,
} from "../../harness/backends/localstack-config.js";
import { MINISTACK_VERSION } from "../../harness/backends/ministack-install.js";
import {
  LabLocalstackContainer,
  publishAddress,
  publishOnly,
  RUN_LABEL,
} from "../../harness/backends/testcontainers.js";
import { PROJECT_ROOT } from "../../harness/common/paths.js";

interface ComposeService {
  image: string;
  ports: string[];
  environment: Record<string, string | null>;
  volumes?: string[];
  healthcheck: { test: string[] };
  profiles?: string[];
}
const compose = parse(readFileSync(path.join(PROJECT_ROOT, "docker-compose.yml"), "utf8")) as {
  services: Record<string, ComposeService>;
};
const localstack = compose.services.localstack as ComposeService;
const ministack = compose.services.ministack as ComposeService;

describe("docker-compose.yml", () => {
  test("LocalStack is pinned to the last free community image, overridable by LOCALSTACK_VERSION", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's own interpolation syntax
    expect(localstack.image).toBe("localstack/localstack:${LOCALSTACK_VERSION:-4.14.0}");
    expect(LOCALSTACK_DEFAULT_IMAGE).toBe("localstack/localstack:4.14.0");
  });

  test.each(["localstack", "ministack"])("%s publishes its port on 127.0.0.1 only", (name) => {
    const service = compose.services[name] as ComposeService;
    expect(service.ports).toEqual(["127.0.0.1:4566:4566"]);
  });

  test("LocalStack gets the Docker socket, so Lambda can run", () => {
    expect(localstack.volumes).toContain("/var/run/docker.sock:/var/run/docker.sock");
  });

  test("the auth token is passed through from the shell, with no default", () => {
    expect(Object.hasOwn(localstack.environment, "LOCALSTACK_AUTH_TOKEN")).toBe(true);
    expect(localstack.environment.LOCALSTACK_AUTH_TOKEN).toBeNull();
    expect(readFileSync(path.join(PROJECT_ROOT, "docker-compose.yml"), "utf8")).not.toMatch(
      /LOCALSTACK_AUTH_TOKEN:-/,
    );
  });

  test("the same LocalStack settings as the testcontainers backend, only the lab's services", () => {
    expect(localstack.environment.SERVICES).toBe(LOCALSTACK_SERVICES);
    const { LOCALSTACK_AUTH_TOKEN, ...settings } = localstack.environment;
    expect(settings).toEqual(localstackEnvironment({}));
  });

  test("health checks call each emulator's health endpoint", () => {
    expect(localstack.healthcheck.test.join(" ")).toContain("/_localstack/health");
    expect(ministack.healthcheck.test.join(" ")).toContain("/_ministack/health");
  });

  test("MiniStack sits behind a profile, pinned to the version the embedded backend installs", () => {
    expect(ministack.profiles).toEqual(["ministack"]);
    expect(ministack.image).toBe(`ministackorg/ministack:${MINISTACK_VERSION}`);
    expect(ministack.environment).toMatchObject({
      LAMBDA_EXECUTOR: "local",
      IOT_MTLS_ENABLED: "0",
    });
  });
});

describe("the testcontainers backend's container", () => {
  test("LOCALSTACK_IMAGE overrides the pinned image", () => {
    expect(localstackImage({})).toBe(LOCALSTACK_DEFAULT_IMAGE);
    expect(localstackImage({ LOCALSTACK_IMAGE: "localstack/localstack:2026.3.0" })).toBe(
      "localstack/localstack:2026.3.0",
    );
  });

  test("the token is passed only when set, and never printed", () => {
    expect(localstackEnvironment({})).not.toHaveProperty("LOCALSTACK_AUTH_TOKEN");
    expect(
      localstackEnvironment({ LOCALSTACK_AUTH_TOKEN: "ls-secret" }).LOCALSTACK_AUTH_TOKEN,
    ).toBe("ls-secret");
    expect(describeLocalstack({ LOCALSTACK_AUTH_TOKEN: "ls-secret" })).not.toContain("ls-secret");
  });

  test("mounts the engine's socket, exposes 4566, waits long enough for a first pull", () => {
    const container = new LabLocalstackContainer(
      LOCALSTACK_DEFAULT_IMAGE,
      "/run/user/1000/docker.sock",
      localstackEnvironment({}),
    ).describe();
    expect(container.image).toBe(LOCALSTACK_DEFAULT_IMAGE);
    expect(container.hostConfig.Binds).toEqual([
      "/run/user/1000/docker.sock:/var/run/docker.sock:rw",
    ]);
    expect(Object.keys(container.hostConfig.PortBindings ?? {})).toEqual(["4566/tcp"]);
    expect(container.env).toMatchObject({ SERVICES: LOCALSTACK_SERVICES });
  });

  test("the Lambda containers it starts carry a label naming this run, for stop() to remove", () => {
    const builder = new LabLocalstackContainer(
      LOCALSTACK_DEFAULT_IMAGE,
      "/var/run/docker.sock",
      localstackEnvironment({}),
    );
    expect(builder.describe().env.LAMBDA_DOCKER_FLAGS).toBe(`-l ${RUN_LABEL}=${builder.runId}`);
    expect(builder.runId).not.toBe(
      new LabLocalstackContainer(LOCALSTACK_DEFAULT_IMAGE, "/s", {}).runId,
    );
  });

  test("its port is published on one address, not on every interface", () => {
    const bindings = { "4566/tcp": [{ HostPort: "0" }] };
    publishOnly(bindings, "127.0.0.1");
    expect(bindings).toEqual({ "4566/tcp": [{ HostPort: "0", HostIp: "127.0.0.1" }] });
  });

  test.each([
    [undefined, "127.0.0.1"],
    ["localhost", "127.0.0.1"],
    ["127.0.0.1", "127.0.0.1"],
    // testcontainers inside a container reaches the engine's bridge gateway, not loopback
    ["172.17.0.1", "172.17.0.1"],
    ["host.docker.internal", "127.0.0.1"],
  ])("an engine reached at %s publishes and connects on %s", (host, address) => {
    expect(publishAddress(host)).toBe(address);
  });
});
