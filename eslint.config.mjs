// Lint and formatting for the whole workspace: typescript-eslint's recommended rules and Effect's dprint
// formatting (the style of Effect's own packages), plus the rules below.
import effect from "@effect/eslint-plugin"
import tseslint from "typescript-eslint"

const barrel = (name, example) => ({
  name,
  message: `Import the module (e.g. ${example}): the barrel pulls every module's types into users' type-checks and ` +
    "every module into their cold start."
})

export default tseslint.config(
  {
    ignores: [
      "**/dist/",
      "**/build/",
      "**/.tshy/",
      "**/.tshy-build/",
      "packages/*/docs/",
      "scratchpad/",
      "reports/",
      ".stryker-tmp/"
    ]
  },
  ...tseslint.configs.recommended,
  ...effect.configs.dprint,
  {
    rules: {
      "@effect/dprint": ["error", {
        config: {
          indentWidth: 2,
          lineWidth: 120,
          semiColons: "asi",
          quoteStyle: "alwaysDouble",
          trailingCommas: "never",
          operatorPosition: "maintain",
          "arrowFunction.useParentheses": "force"
        }
      }],
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/array-type": ["error", { default: "generic", readonly: "generic" }],
      // Effect's style: `declare namespace X { interface Service }` beside a tag, `{}` for a variant without fields
      "@typescript-eslint/no-namespace": "off",
      "@typescript-eslint/no-empty-object-type": ["error", { allowObjectTypes: "always" }]
    }
  },
  {
    // CommonJS fixtures use require() on purpose
    files: ["**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" }
  },
  {
    // the published libraries: no console (Effect's logger instead)
    files: ["packages/{core,platform-node,sandbox}/src/**/*.ts"],
    ignores: ["packages/sandbox/src/bin/**"],
    rules: { "no-console": "error" }
  },
  {
    // every published package's source, whose import users pay at every cold start and in every type-check: no
    // barrel of effect or of the platform (effect/http and effect/cli are published as barrels only)
    files: ["packages/{core,platform-node,sandbox,cli}/src/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", {
        paths: [
          barrel("effect", "effect/Schema"),
          barrel("@effect/platform-node", "@effect/platform-node/NodeHttpServer")
        ]
      }]
    }
  }
)
