"""Rule modules, one per rule set or optional rule, each citing its catalogue clause ids."""
