// ESLint (flat config) for the web page's ES modules and their node unit tests: `make node`
// installs it (npm ci), `make test` runs it (npm run lint).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "build/", ".venv/"] },
  js.configs.recommended,
  {
    files: ["src/minegraph/web/static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["tests/web/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
  {
    rules: {
      "no-unused-vars": ["error", { args: "none" }],
      "eqeqeq": "error",
      "no-var": "error",
      "prefer-const": "error",
      "no-implicit-globals": "error",
      "max-lines": ["error", { max: 300 }],
    },
  },
];
