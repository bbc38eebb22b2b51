"""The four resolution systems, one module each, all of the same shape."""
