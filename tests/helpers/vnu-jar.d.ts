/** The part of vnu-jar (no types of its own) the tests use: the Nu HTML Checker's jar and a runner for it. */
declare module "vnu-jar" {
  const vnuJar: string & {
    vnu: {
      /** Runs `java -jar vnu.jar ...args` (Java on PATH, or one it downloads); resolves with stdout and stderr. */
      check(args: string[]): Promise<string>;
    };
  };
  export default vnuJar;
}
