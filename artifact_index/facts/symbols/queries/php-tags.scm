; PHP definitions. Namespaces are modules; `namespace X;` spans only its own
; line, a braced `namespace X { ... }` contains what it declares.

(namespace_definition
  name: (namespace_name) @name.definition.module) @definition.module

(class_declaration
  name: (name) @name.definition.class) @definition.class

(interface_declaration
  name: (name) @name.definition.interface) @definition.interface

(trait_declaration
  name: (name) @name.definition.trait) @definition.trait

(enum_declaration
  name: (name) @name.definition.enum) @definition.enum

(method_declaration
  name: (name) @name.definition.method) @definition.method

(function_definition
  name: (name) @name.definition.function) @definition.function
