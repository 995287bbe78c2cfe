// LanesCron: see the module's issue; filled in by its own change.
