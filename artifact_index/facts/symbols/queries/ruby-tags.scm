; Ruby definitions. A `def` in a class, module or `class << self` body is a
; method (modules hold mixin methods); any other `def` is a function.

(class
  name: (_) @name.definition.class) @definition.class

(module
  name: (_) @name.definition.module) @definition.module

(class
  (body_statement
    [
      (method name: (_) @name.definition.method)
      (singleton_method name: (_) @name.definition.method)
    ] @definition.method))

(module
  (body_statement
    [
      (method name: (_) @name.definition.method)
      (singleton_method name: (_) @name.definition.method)
    ] @definition.method))

(singleton_class
  (body_statement
    [
      (method name: (_) @name.definition.method)
      (singleton_method name: (_) @name.definition.method)
    ] @definition.method))

(method
  name: (_) @name.definition.function) @definition.function

(singleton_method
  name: (_) @name.definition.function) @definition.function
