"""Passes on the hlo dialect (hlo in, hlo out). Each module holds one pass."""
