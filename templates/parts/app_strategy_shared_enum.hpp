using enum overlap::Entry;  // the same entries, in the same order
