"""Rauf-Runter-Kniffel: the exact bounds of ↓ and ↑ together and the bot's value estimate."""
