// A file under a name that does not tell it from its neighbours: refused.
