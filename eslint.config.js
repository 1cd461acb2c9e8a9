// ESLint checks what a formatter cannot: typescript-eslint's type-aware rules catch promises
// left floating or passed where a callback's result is ignored, which matter in code made of
// streams and fan-outs. Prettier owns the layout, so eslint-config-prettier turns off every
// rule that would argue with it.
import js from "@eslint/js";
import stylistic from "@stylistic/eslint-plugin";
import prettier from "eslint-config-prettier";
import globals from "globals";
import tseslint from "typescript-eslint";
import vue from "eslint-plugin-vue";

export default tseslint.config(
  { ignores: ["dist/", "coverage/", "docs/.vitepress/dist/", "docs/.vitepress/cache/"] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  // The dashboard's components: Vue's own rules; their TypeScript is checked by vue-tsc
  // (npm run typecheck), not by the type-aware rules, which do not read .vue files.
  ...vue.configs["flat/recommended"],
  {
    files: ["**/*.vue"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, extraFileExtensions: [".vue"] },
      globals: globals.browser,
    },
    // Engine strings are rendered as text, never as markup (docs/guide/dashboard.md).
    // Component names are the brief's own (Notice, App); none clashes with an HTML element.
    rules: { "vue/no-v-html": "error", "vue/multi-word-component-names": "off" },
  },
  {
    files: ["**/*.{js,mjs}"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    // Tests read engine and server bodies as loose JSON on purpose: the OpenAPI schemas, not
    // the types, are what check them.
    files: ["test/**"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      // Colour tests match the terminal's escape sequences.
      "no-control-regex": "off",
    },
  },
  prettier,
  {
    // Prettier wraps code at 100 columns but leaves long strings and comments alone.
    // (After eslint-config-prettier, which turns max-len off.)
    plugins: { "@stylistic": stylistic },
    rules: {
      "@stylistic/max-len": ["error", { code: 120 }],
      // An async function rejects rather than throws, even with no await: the house style for
      // core calls, whose callers await them.
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }],
    },
  },
  {
    // A test's name, an expected message or a report line reads best whole.
    files: ["test/**", "bench/**"],
    rules: {
      "@stylistic/max-len": [
        "error",
        {
          code: 120,
          ignoreUrls: true,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
        },
      ],
    },
  },
);
