"""Autodiff rules, one module per op family; each registers its rules in `..registry`."""
