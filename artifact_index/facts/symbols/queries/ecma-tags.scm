; Definitions common to JavaScript and TypeScript; javascript-tags.scm and
; typescript-tags.scm inherit this file.
; `export` wrappers belong to the definition they export (see symbols.py).

(function_declaration
  name: (identifier) @name.definition.function) @definition.function

(generator_function_declaration
  name: (identifier) @name.definition.function) @definition.function

(class_declaration
  name: (_) @name.definition.class) @definition.class

; const f = () => ..., let g = function () {...}, var C = class {...}
(lexical_declaration
  (variable_declarator
    name: (identifier) @name.definition.function
    value: [(arrow_function) (function) (generator_function)])) @definition.function

(variable_declaration
  (variable_declarator
    name: (identifier) @name.definition.function
    value: [(arrow_function) (function) (generator_function)])) @definition.function

(lexical_declaration
  (variable_declarator
    name: (identifier) @name.definition.class
    value: (class))) @definition.class

(variable_declaration
  (variable_declarator
    name: (identifier) @name.definition.class
    value: (class))) @definition.class

(method_definition
  name: (_) @name.definition.method) @definition.method

; exports.f = function () {...}, module.exports.f = () => ..., Foo.prototype.f = ...
(expression_statement
  (assignment_expression
    left: (member_expression
      property: (property_identifier) @name.definition.function)
    right: [(arrow_function) (function) (generator_function)])) @definition.function

; an object literal given a name is the container of its methods:
; const api = { load() {...} }, Hooks.Editor = { mounted() {...} }
(variable_declarator
  name: (identifier) @name.definition.impl
  value: (object)) @definition.impl

(assignment_expression
  left: [
    (identifier) @name.definition.impl
    (member_expression property: (property_identifier) @name.definition.impl)
  ]
  right: (object)) @definition.impl

(pair
  key: (property_identifier) @name.definition.method
  value: [(arrow_function) (function) (generator_function)]) @definition.method
