"""The caller's terminal: the Terminal seam, keys and their decoder, character sets, ANSI,
the canvas.
"""
