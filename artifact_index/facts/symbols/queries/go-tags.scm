; Go definitions. A method's container is its receiver type.

(function_declaration
  name: (identifier) @name.definition.function) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @container
        (pointer_type (type_identifier) @container)
        (generic_type type: (type_identifier) @container)
        (pointer_type (generic_type type: (type_identifier) @container))
      ]))
  name: (field_identifier) @name.definition.method) @definition.method

(type_spec
  name: (type_identifier) @name.definition.struct
  type: (struct_type)) @definition.struct

(type_spec
  name: (type_identifier) @name.definition.interface
  type: (interface_type)) @definition.interface

(type_spec
  name: (type_identifier) @name.definition.type) @definition.type

(type_alias
  name: (type_identifier) @name.definition.type) @definition.type

(method_spec
  name: (field_identifier) @name.definition.method) @definition.method
