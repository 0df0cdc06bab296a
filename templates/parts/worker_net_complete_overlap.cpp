where.clear();
net_.wait();  // this cycle's host-to-host transfers
