"""Runners: drive real llama.cpp binaries and return parsed results plus process facts."""
