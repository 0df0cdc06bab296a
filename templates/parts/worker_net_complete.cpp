where.clear();
net_.wait();
