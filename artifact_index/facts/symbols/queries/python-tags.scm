; Python definitions. A function directly in a class becomes a method;
; decorators belong to the definition they decorate (see symbols.py).

(class_definition
  name: (identifier) @name.definition.class) @definition.class

(function_definition
  name: (identifier) @name.definition.function) @definition.function
