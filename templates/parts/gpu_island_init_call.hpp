s.$ident$_.init($ctx$);
