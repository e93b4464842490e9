/**
 * The rule `scripts/check-object-shapes.ts` applies to each file: an object literal that begins
 * with a spread and has members of its own after it. V8, as Node 20 ships it, gives every object
 * such a literal makes a hidden class of its own (docs/decisions/objects-of-one-shape.md).
 */
import ts from 'typescript';

/** A literal whose first member is a spread and which has a member of its own after it. */
function clonesThenAdds(node: ts.Node): node is ts.ObjectLiteralExpression {
  if (!ts.isObjectLiteralExpression(node)) return false;
  const [first, ...rest] = node.properties;
  return (
    first !== undefined &&
    ts.isSpreadAssignment(first) &&
    rest.some((member) => !ts.isSpreadAssignment(member))
  );
}

/** The 1-based lines of `text` (a TypeScript file named `file`) where such a literal begins. */
export function spreadsThenAdds(file: string, text: string): number[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if (clonesThenAdds(node))
      lines.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}
