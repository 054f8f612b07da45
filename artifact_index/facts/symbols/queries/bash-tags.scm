; Bash definitions: `name() { ... }`, `function name { ... }` and both together.

(function_definition
  name: (word) @name.definition.function) @definition.function
