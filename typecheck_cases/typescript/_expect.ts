// Type-level assertions for the positive cases: `Expect<Equal<A, B>>` compiles only when A and B
// are the same type (not merely assignable either way), like `assert_type` in the Python cases.
export type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
export type Expect<T extends true> = T;
