net_.poll();  // progress the host-to-host transfers
