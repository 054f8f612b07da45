; inherits: ecma
; JavaScript definitions beyond those shared with TypeScript.

; class fields holding functions: handleClick = () => {...}
(field_definition
  property: (_) @name.definition.method
  value: [(arrow_function) (function)]) @definition.method
