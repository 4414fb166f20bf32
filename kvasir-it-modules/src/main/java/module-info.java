/**
 * A user's application on the module path. It requires Kvasir's core only: the engines are
 * services, so having them on the module path is enough to open their databases.
 */
module dev.kvasir.it.modules {
  requires dev.kvasir.core;

  // Records are read and written by reflection, so their package is opened to the core.
  opens dev.kvasir.it.modules to dev.kvasir.core;
}
