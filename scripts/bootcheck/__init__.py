"""`make boot-check`: Parlor's appliance booted in a real virtual machine (scripts/boot_check.py)."""
