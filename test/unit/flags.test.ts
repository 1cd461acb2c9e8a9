// A command's option and argument types are read off what it declares (src/operations/flags.ts):
// checked by the compiler (npm run typecheck), here as type assertions.
import { describe, expectTypeOf, it } from "vitest";
import type { ArgsOf, OptionsOf } from "../../src/operations/flags.ts";
import {
  CLUSTER_ARG,
  CLUSTERS_ARG,
  filterOption,
  WATCH_OPTION,
} from "../../src/operations/parts.ts";

describe("option and argument types from the declarations", () => {
  it("read each flag's key, value and presence as commander gives them", () => {
    type Options = OptionsOf<
      [
        ReturnType<typeof filterOption>,
        typeof WATCH_OPTION,
        { flags: "-n, --tail <lines>"; description: ""; default: "100" },
        { flags: "--ps-args <args>"; description: "" },
        { flags: "--no-trunc"; description: "" },
        { flags: "-a, --all"; description: "" },
      ]
    >;
    expectTypeOf<Options["filter"]>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<Options["watch"]>().toEqualTypeOf<number | true | undefined>();
    expectTypeOf<Options["tail"]>().toEqualTypeOf<string>();
    expectTypeOf<Options["psArgs"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Options["trunc"]>().toEqualTypeOf<boolean>();
    expectTypeOf<Options["all"]>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Options["json"]>().toEqualTypeOf<boolean | undefined>();
  });

  it("read the arguments in order: required, optional, variadic", () => {
    type Args = ArgsOf<[typeof CLUSTER_ARG, readonly ["[name]", ""], typeof CLUSTERS_ARG]>;
    expectTypeOf<Args>().toEqualTypeOf<[string, string | undefined, string[]]>();
  });
});
