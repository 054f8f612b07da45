; C# definitions. Records are classes (record structs structs), delegates
; types, namespaces modules; constructors are methods named after their class.

(namespace_declaration
  name: (_) @name.definition.module) @definition.module

(file_scoped_namespace_declaration
  name: (_) @name.definition.module) @definition.module

(class_declaration
  name: (identifier) @name.definition.class) @definition.class

(record_declaration
  name: (identifier) @name.definition.class) @definition.class

(record_struct_declaration
  name: (identifier) @name.definition.struct) @definition.struct

(struct_declaration
  name: (identifier) @name.definition.struct) @definition.struct

(interface_declaration
  name: (identifier) @name.definition.interface) @definition.interface

(enum_declaration
  name: (identifier) @name.definition.enum) @definition.enum

(delegate_declaration
  name: (identifier) @name.definition.type) @definition.type

(method_declaration
  name: (identifier) @name.definition.method) @definition.method

(constructor_declaration
  name: (identifier) @name.definition.method) @definition.method

(local_function_statement
  name: (identifier) @name.definition.function) @definition.function
