import { describe, expect, it } from "vitest";
import { describeTarget } from "../../src/core/config/receiver-target.ts";

describe("a receiver's target as docklens config shows it: never in clear", () => {
  it.each([
    ["https://hooks.slack.com/services/T0/B0/s3cr3t", "https://hooks.slack.com/<redacted>"],
    ["https://discord.com/api/webhooks/1/t0k3n?wait=true", "https://discord.com/<redacted>"],
    ["https://ntfy.sh/my-secret-topic", "https://ntfy.sh/<redacted>"],
    ["http://user:pa55@127.0.0.1:9093", "http://127.0.0.1:9093"],
    ["http://127.0.0.1:9093/", "http://127.0.0.1:9093"],
    ["http://hook.local/#t0k3n", "http://hook.local/<redacted>"],
    ["not a url", "<redacted>"],
    [{ env: "HOOK_URL" }, "$HOOK_URL"],
    [{ file: "/run/secrets/hook" }, "file /run/secrets/hook"],
  ] as const)("%j: %s", (target, shown) => {
    expect(describeTarget(target)).toBe(shown);
  });
});
