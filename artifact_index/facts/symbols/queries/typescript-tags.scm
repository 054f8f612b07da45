; inherits: ecma
; TypeScript definitions beyond those shared with JavaScript (also the base of
; the TSX query).

(interface_declaration
  name: (_) @name.definition.interface) @definition.interface

(type_alias_declaration
  name: (_) @name.definition.type) @definition.type

(enum_declaration
  name: (_) @name.definition.enum) @definition.enum

(abstract_class_declaration
  name: (_) @name.definition.class) @definition.class

; namespace N {...}, module M {...}, declare module "m" {...}
(internal_module
  name: (_) @name.definition.module) @definition.module

(module
  name: (_) @name.definition.module) @definition.module

; declare function f(): T; and overload signatures
(function_signature
  name: (_) @name.definition.function) @definition.function

(method_signature
  name: (_) @name.definition.method) @definition.method

(abstract_method_signature
  name: (_) @name.definition.method) @definition.method

; class fields holding functions: onChange = (next) => {...}
(public_field_definition
  name: (_) @name.definition.method
  value: [(arrow_function) (function)]) @definition.method
