; inherits: typescript
; TSX has the TypeScript definitions; JSX adds none of its own.
