; Kotlin definitions. `interface` and `enum class` are told apart from other
; classes by their keyword (these patterns come first, so they win the kind);
; an extension function `fun T.name()` is a method of its receiver type.

(class_declaration
  "interface"
  name: (type_identifier) @name.definition.interface) @definition.interface

(class_declaration
  "enum"
  name: (type_identifier) @name.definition.enum) @definition.enum

; tree-sitter-kotlin 1.x (the grammar on Python 3.13+) puts `enum` among the modifiers.
(class_declaration
  (modifiers (class_modifier "enum"))
  name: (type_identifier) @name.definition.enum) @definition.enum

(class_declaration
  name: (type_identifier) @name.definition.class) @definition.class

(object_declaration
  name: (type_identifier) @name.definition.object) @definition.object

(type_alias
  name: (type_identifier) @name.definition.type) @definition.type

; tree-sitter-kotlin 1.x: the alias's name is its `type` field.
(type_alias
  type: (type_identifier) @name.definition.type) @definition.type

(function_declaration
  receiver: [
    (user_type (type_identifier) @container)
    (nullable_type (user_type (type_identifier) @container))
  ]
  name: (simple_identifier) @name.definition.method) @definition.method

; tree-sitter-kotlin 1.x: the receiver has no field name; it is the type right before the name.
(function_declaration
  [
    (user_type (type_identifier) @container)
    (nullable_type (user_type (type_identifier) @container))
  ]
  .
  name: (simple_identifier) @name.definition.method) @definition.method

(function_declaration
  name: (simple_identifier) @name.definition.function) @definition.function

(secondary_constructor
  "constructor" @name.definition.method) @definition.method
