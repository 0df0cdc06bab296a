run.publish(kPe_$pe$, storage_, run.memory.$pe$);
