"""One module per op family; each registers its rules with `registry.batch_rule`."""
