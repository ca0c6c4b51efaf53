// Every workflow the worker runs. Deterministic code only: no I/O, no Node built-ins,
// and activities are imported as types.
export {};
