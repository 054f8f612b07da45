; Rust definitions. An `impl` block is a scope only: the functions in it are
; methods of its type (`impl Trait for Type` included). `#[...]` attributes
; before an item belong to it (see symbols.py).

(function_item
  name: (identifier) @name.definition.function) @definition.function

(function_signature_item
  name: (identifier) @name.definition.function) @definition.function

(struct_item
  name: (type_identifier) @name.definition.struct) @definition.struct

(enum_item
  name: (type_identifier) @name.definition.enum) @definition.enum

(union_item
  name: (type_identifier) @name.definition.union) @definition.union

(trait_item
  name: (type_identifier) @name.definition.trait) @definition.trait

(type_item
  name: (type_identifier) @name.definition.type) @definition.type

(mod_item
  name: (identifier) @name.definition.module) @definition.module

(macro_definition
  name: (identifier) @name.definition.macro) @definition.macro

(impl_item
  type: [
    (type_identifier) @name.definition.impl
    (generic_type type: (type_identifier) @name.definition.impl)
    (scoped_type_identifier name: (type_identifier) @name.definition.impl)
    (generic_type type: (scoped_type_identifier name: (type_identifier) @name.definition.impl))
  ]) @definition.impl
