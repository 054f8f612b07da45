; C definitions (also the base of the C++ query). Prototypes count as
; functions so that headers have symbols; struct, union and enum specifiers
; count only with a body, not where they are merely used.

(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name.definition.function)
    (pointer_declarator
      declarator: (function_declarator declarator: (identifier) @name.definition.function))
    (pointer_declarator
      declarator: (pointer_declarator
        declarator: (function_declarator declarator: (identifier) @name.definition.function)))
  ]) @definition.function

(declaration
  declarator: [
    (function_declarator declarator: (identifier) @name.definition.function)
    (pointer_declarator
      declarator: (function_declarator declarator: (identifier) @name.definition.function))
  ]) @definition.function

(struct_specifier
  name: (type_identifier) @name.definition.struct
  body: (_)) @definition.struct

(union_specifier
  name: (type_identifier) @name.definition.union
  body: (_)) @definition.union

(enum_specifier
  name: (type_identifier) @name.definition.enum
  body: (_)) @definition.enum

; typedef struct { ... } name_t; (an anonymous body named by its typedef)
(type_definition
  type: (struct_specifier !name body: (_))
  declarator: (type_identifier) @name.definition.struct) @definition.struct

(type_definition
  type: (union_specifier !name body: (_))
  declarator: (type_identifier) @name.definition.union) @definition.union

(type_definition
  type: (enum_specifier !name body: (_))
  declarator: (type_identifier) @name.definition.enum) @definition.enum

; other typedefs: typedef int id_t; typedef struct node *node_ptr;
; typedef int (*compare_fn)(const void *, const void *);
(type_definition
  type: [
    (primitive_type) (type_identifier) (sized_type_specifier)
    (struct_specifier !body) (union_specifier !body) (enum_specifier !body)
  ]
  declarator: [
    (type_identifier) @name.definition.type
    (pointer_declarator declarator: (type_identifier) @name.definition.type)
    (function_declarator
      declarator: (parenthesized_declarator
        (pointer_declarator declarator: (type_identifier) @name.definition.type)))
  ]) @definition.type

(preproc_function_def
  name: (identifier) @name.definition.macro) @definition.macro
