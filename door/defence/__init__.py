"""Defences against hostile callers: per-address limits, rate limits, password guessing,
look-alike names.
"""
