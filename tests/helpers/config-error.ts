import { expect } from "vitest";
import { ConfigError, loadConfig } from "../../server/config.ts";

/** loadConfig's message for env, or a failure when it does not throw a ConfigError. */
export function configError(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}
