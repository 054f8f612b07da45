; Elixir definitions. Everything is a call: `defmodule Name do ... end`,
; `def name(args) when guard do ... end`, `def name, do: value`. A protocol is
; a module; `defimpl Protocol, for: Type` is a scope whose functions are
; methods of Type (named after the protocol without `for:`).

(call
  target: (identifier) @keyword
  (arguments . (alias) @name.definition.module)
  (#any-of? @keyword "defmodule" "defprotocol")) @definition.module

(call
  target: (identifier) @keyword
  (arguments
    (alias)
    (keywords
      (pair
        key: (keyword) @for
        value: (alias) @name.definition.impl)))
  (#eq? @keyword "defimpl")
  (#match? @for "^for:")) @definition.impl

(call
  target: (identifier) @keyword
  (arguments . (alias) @name.definition.impl .)
  (#eq? @keyword "defimpl")) @definition.impl

(call
  target: (identifier) @keyword
  (arguments
    .
    [
      (identifier) @name.definition.macro
      (call target: (identifier) @name.definition.macro)
      (binary_operator
        left: (call target: (identifier) @name.definition.macro)
        operator: "when")
    ])
  (#any-of? @keyword "defmacro" "defmacrop")) @definition.macro

(call
  target: (identifier) @keyword
  (arguments
    .
    [
      (identifier) @name.definition.function
      (call target: (identifier) @name.definition.function)
      (binary_operator
        left: (call target: (identifier) @name.definition.function)
        operator: "when")
    ])
  (#any-of? @keyword "def" "defp" "defdelegate" "defguard" "defguardp" "defn" "defnp")) @definition.function
