"""Transports: each turns one kind of line (telnet, SSH, the console, a BBS's drop file,
RLogin, a browser) into a Terminal.
"""
