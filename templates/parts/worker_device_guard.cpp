dfg::DeviceGuard device($d$);
