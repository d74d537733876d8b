"""The caller's user interface: the session's screen stack, the renderer, shared widgets."""
