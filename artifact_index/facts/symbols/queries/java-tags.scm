; Java definitions. Records are classes, annotation types interfaces;
; constructors are methods named after their class.

(class_declaration
  name: (identifier) @name.definition.class) @definition.class

(record_declaration
  name: (identifier) @name.definition.class) @definition.class

(interface_declaration
  name: (identifier) @name.definition.interface) @definition.interface

(annotation_type_declaration
  name: (identifier) @name.definition.interface) @definition.interface

(enum_declaration
  name: (identifier) @name.definition.enum) @definition.enum

(method_declaration
  name: (identifier) @name.definition.method) @definition.method

(constructor_declaration
  name: (identifier) @name.definition.method) @definition.method

(compact_constructor_declaration
  name: (identifier) @name.definition.method) @definition.method

(annotation_type_element_declaration
  name: (identifier) @name.definition.method) @definition.method
