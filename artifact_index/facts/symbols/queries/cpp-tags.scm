; inherits: c
; C++ definitions beyond C. A function defined in a class body is a method;
; one defined outside as `Type::name` is a method of `Type` (the innermost
; qualifier is the container).

(class_specifier
  name: (type_identifier) @name.definition.class
  body: (_)) @definition.class

(namespace_definition
  name: (_) @name.definition.module) @definition.module

(alias_declaration
  name: (type_identifier) @name.definition.type) @definition.type

; inline in a class body, constructors, destructors and operators
(function_definition
  declarator: [
    (function_declarator
      declarator: [(field_identifier) (destructor_name) (operator_name)] @name.definition.function)
    (reference_declarator
      (function_declarator declarator: (field_identifier) @name.definition.function))
    (pointer_declarator
      declarator: (function_declarator declarator: (field_identifier) @name.definition.function))
  ]) @definition.function

; Type::name() and ns::Type::name()
(function_definition
  declarator: [
    (function_declarator
      declarator: (qualified_identifier
        scope: [(namespace_identifier) @container (template_type name: (_) @container)]
        name: [(identifier) (destructor_name) (operator_name)] @name.definition.method))
    (function_declarator
      declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @container (template_type name: (_) @container)]
          name: [(identifier) (destructor_name) (operator_name)] @name.definition.method)))
    (reference_declarator
      (function_declarator
        declarator: (qualified_identifier
          scope: [(namespace_identifier) @container (template_type name: (_) @container)]
          name: [(identifier) (operator_name)] @name.definition.method)))
    (pointer_declarator
      declarator: (function_declarator
        declarator: (qualified_identifier
          scope: [(namespace_identifier) @container (template_type name: (_) @container)]
          name: [(identifier) (operator_name)] @name.definition.method)))
  ]) @definition.method

; member function declarations in a class body: int total() const; ~Cart();
(field_declaration
  declarator: [
    (function_declarator declarator: [(field_identifier) (operator_name)] @name.definition.method)
    (reference_declarator
      (function_declarator declarator: (field_identifier) @name.definition.method))
    (pointer_declarator
      declarator: (function_declarator declarator: (field_identifier) @name.definition.method))
  ]) @definition.method

(declaration
  declarator: (function_declarator
    declarator: [(destructor_name) (operator_name)] @name.definition.function)) @definition.function
