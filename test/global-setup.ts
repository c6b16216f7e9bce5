/** Prepared once per test run; database templates are added here. */
export default async function setup(): Promise<void> {}
