
}  // namespace $ns$