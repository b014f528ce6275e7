"""Advice: the exact one-column solver, the Rauf-Runter bounds and bot, simulation and analysis."""
